def wrapper_with_2d_output(d_in, context_length, dropout):
    num_heads, total_features = 2, 2
    return MultiHeadAttentionWrapper(
        d_in=d_in, d_out=total_features // num_heads, context_length=context_length,
        dropout=dropout, num_heads=num_heads,
    )
