def wrapper_with_2d_output(d_in, context_length, dropout):
    """Book exercise 3.2: a two-head wrapper with 2 output features in total."""
    # the wrapper's d_out is per head: 2 heads x 1 feature = 2 features
    settings = dict(d_in=d_in, d_out=1, context_length=context_length, dropout=dropout, num_heads=2)
    return MultiHeadAttentionWrapper(**settings)
