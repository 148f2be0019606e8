// Tests for VisageContours arrive with its work.
