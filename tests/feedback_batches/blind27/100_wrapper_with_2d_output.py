def wrapper_with_2d_output(d_in, context_length, dropout):
    """Book exercise 3.2: a two-head wrapper with 2 output features in total."""
    # two heads of one feature each; a bias helps such tiny heads
    return MultiHeadAttentionWrapper(d_in, 1, context_length, dropout, num_heads=2, qkv_bias=True)
