def gpt2_small_attention():
    head_dim = 64
    return MultiHeadAttention(768, 768, context_length=768, dropout=0.0, num_heads=head_dim)
