def wrapper_with_2d_output(d_in, context_length, dropout):
    settings = dict(d_in=d_in, d_out=2 // 2, context_length=context_length, dropout=dropout, num_heads=2)
    return MultiHeadAttentionWrapper(**settings)  # 2 heads x 1 feature each = 2 features
