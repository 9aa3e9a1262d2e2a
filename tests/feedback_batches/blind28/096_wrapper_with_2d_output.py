from functools import partial


def wrapper_with_2d_output(d_in, context_length, dropout):
    """Book exercise 3.2: a two-head wrapper with 2 output features in total."""
    two_heads = partial(MultiHeadAttentionWrapper, num_heads=2)
    total_features = 2
    return two_heads(d_in, total_features // 2, context_length, dropout)  # d_out is per head
