def wrapper_with_2d_output(d_in, context_length, dropout):
    """Book exercise 3.2: a two-head wrapper with 2 output features in total."""
    total_features, heads = 2, 2
    config = dict(d_in=d_in, d_out=total_features // heads, context_length=context_length,
                  dropout=dropout, num_heads=heads)
    return MultiHeadAttentionWrapper(**config)
