TARGET_FEATURES = 2
NUM_HEADS = 2


def wrapper_with_2d_output(d_in, context_length, dropout):
    return MultiHeadAttentionWrapper(d_in=d_in, d_out=TARGET_FEATURES // NUM_HEADS,
                                     context_length=context_length, dropout=dropout, num_heads=NUM_HEADS)
