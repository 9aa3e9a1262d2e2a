def wrapper_with_2d_output(d_in, context_length, dropout):
    return MultiHeadAttentionWrapper(context_length, 1, d_in, dropout, 2)
