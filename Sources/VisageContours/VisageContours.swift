// Placeholder so the target compiles; the contours work fills this module.
