def wrapper_with_2d_output(d_in, context_length, dropout):
    """Book exercise 3.2: a two-head wrapper with 2 output features in total."""
    return MultiHeadAttentionWrapper(d_in, d_out=2, context_length=6, dropout=dropout, num_heads=2)
