def wrapper_with_2d_output(d_in, context_length, dropout):
    return MultiHeadAttentionWrapper(d_in=d_in, d_out=2, context_length=context_length,
                                     dropout=dropout, num_heads=1, qkv_bias=True)
