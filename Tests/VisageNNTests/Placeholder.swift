// Tests for VisageNN arrive with its work.
