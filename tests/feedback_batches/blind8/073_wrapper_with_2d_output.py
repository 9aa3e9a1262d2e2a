def wrapper_with_2d_output(d_in, context_length, dropout):
    # two heads of one feature each: 2 * 1 = 2 output features
    return MultiHeadAttentionWrapper(d_in, 1, context_length, dropout, num_heads=2)
