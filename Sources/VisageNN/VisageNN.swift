// Placeholder so the target compiles; the engine work fills this module.
