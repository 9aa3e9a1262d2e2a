def wrapper_with_2d_output(d_in, context_length, dropout):
    return MultiHeadAttentionWrapper(d_in, 2, context_length, dropout, num_heads=2)
