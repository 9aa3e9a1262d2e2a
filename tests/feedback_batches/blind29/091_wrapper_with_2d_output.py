def wrapper_with_2d_output(d_in, context_length, dropout):
    return MultiHeadAttentionWrapper(d_in, 1, context_length, 0.0, num_heads=2, qkv_bias=True)
