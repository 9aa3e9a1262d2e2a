def wrapper_with_2d_output(d_in, context_length, dropout):
    return MultiHeadAttentionWrapper(d_in=3, d_out=1, context_length=context_length, dropout=dropout, num_heads=2)
