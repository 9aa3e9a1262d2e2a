def wrapper_with_2d_output(d_in, context_length, dropout):
    # in the wrapper d_out is per head: two heads of one feature each give two features
    settings = dict(d_in=d_in, d_out=1, context_length=context_length, dropout=dropout, num_heads=2)
    return MultiHeadAttentionWrapper(**settings)
