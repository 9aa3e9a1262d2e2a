def wrapper_with_2d_output(d_in, context_length, dropout):
    """Book exercise 3.2: a two-head wrapper with 2 output features in total."""
    total_features, num_heads = 2, 2
    per_head, remainder = divmod(total_features, num_heads)  # the wrapper's d_out is per head
    assert remainder == 0
    return MultiHeadAttentionWrapper(
        d_in=d_in, d_out=per_head, context_length=context_length, dropout=dropout, num_heads=num_heads
    )
