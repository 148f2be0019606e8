// Tests for Visage arrive with its work.
