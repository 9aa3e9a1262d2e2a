def wrapper_with_2d_output(d_in, context_length, dropout):
    """Book exercise 3.2: a two-head wrapper with 2 output features in total."""
    num_heads = 2
    total_features = 2
    return MultiHeadAttentionWrapper(
        num_heads=num_heads, dropout=dropout, context_length=context_length,
        d_out=total_features // num_heads, d_in=d_in,
    )
