TOTAL_FEATURES = 2
NUM_HEADS = 2

def wrapper_with_2d_output(d_in, context_length, dropout):
    # the wrapper's d_out is per head: 2 features over 2 heads is 1 feature per head
    return MultiHeadAttentionWrapper(
        d_in=d_in, d_out=TOTAL_FEATURES // NUM_HEADS, context_length=context_length,
        dropout=dropout, num_heads=NUM_HEADS,
    )
