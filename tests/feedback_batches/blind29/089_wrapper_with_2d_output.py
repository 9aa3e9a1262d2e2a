import functools


def wrapper_with_2d_output(d_in, context_length, dropout):
    """Book exercise 3.2: two heads of one feature each."""
    two_heads = functools.partial(MultiHeadAttentionWrapper, num_heads=2)
    return two_heads(d_in, 1, context_length, dropout)  # 2 heads x d_out=1 -> 2 features
