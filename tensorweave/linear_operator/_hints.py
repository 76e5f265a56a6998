"""How the is_* hints of a product (or A^-1 B) follow from its factors' hints (TF's rules)."""


def is_square(a, b):
    if a.is_square and b.is_square:
        return True
    if a.is_square is False and b.is_square is False:
        m, n = a.range_dimension, b.domain_dimension
        if m.value is not None and n.value is not None:
            return m == n
    if a.is_square != b.is_square and a.is_square is not None and b.is_square is not None:
        return False
    return None


def non_singular(a, b):
    if a.is_non_singular is False or b.is_non_singular is False:
        return False
    return a.is_non_singular and b.is_non_singular


def product_hints(a, b):
    """The hints of the composition [a, b]."""
    square = is_square(a, b)
    hints = dict(is_square=square, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None)
    if square:
        hints["is_non_singular"] = non_singular(a, b)
    elif square is False:
        hints.update(is_non_singular=False, is_self_adjoint=False, is_positive_definite=False)
    return hints
