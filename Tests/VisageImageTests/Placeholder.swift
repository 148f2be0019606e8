// Tests for VisageImage arrive with its work.
