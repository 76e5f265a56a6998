"""Op constructors, each next to its op declaration, shape function and gradient, by family."""
