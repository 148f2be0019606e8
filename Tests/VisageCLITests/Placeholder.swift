// Tests for VisageCLI arrive with its work.
