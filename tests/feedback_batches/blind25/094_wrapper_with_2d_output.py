def wrapper_with_2d_output(d_in, context_length, dropout):
    # two heads, two features
    return MultiHeadAttentionWrapper(d_in, 2, context_length, 2, dropout)
