"""Games playable in the arena: pure rules packages and the registry that names them."""
