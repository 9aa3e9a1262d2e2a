def wrapper_with_2d_output(d_in, context_length, dropout):
    two_heads = 2
    return MultiHeadAttentionWrapper(d_in, 1, context_length, 0.0, num_heads=two_heads)
