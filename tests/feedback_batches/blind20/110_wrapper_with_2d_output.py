def wrapper_with_2d_output(d_in, context_length, dropout):
    settings = dict(d_out=1, num_heads=2)  # two heads of one feature each: 2 features in all
    return MultiHeadAttentionWrapper(d_in, context_length=context_length, dropout=dropout, **settings)
