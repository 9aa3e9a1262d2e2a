def wrapper_with_2d_output(d_in, context_length, dropout):
    """Book exercise 3.2: a two-head wrapper with 2 output features in total."""
    num_heads, total_features = 2, 2
    # the wrapper concatenates its heads, so each head contributes total / heads features
    return MultiHeadAttentionWrapper(d_in, total_features // num_heads, context_length, dropout, num_heads)
