import functools


def wrapper_with_2d_output(d_in, context_length, dropout):
    """Book exercise 3.2: a two-head wrapper with 2 output features in total."""
    # every head adds its own d_out features: two heads of one feature each
    two_heads = functools.partial(MultiHeadAttentionWrapper, num_heads=2, d_out=1)
    return two_heads(d_in=d_in, context_length=context_length, dropout=dropout)
