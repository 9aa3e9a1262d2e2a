def gpt2_small_attention():
    return MultiHeadAttention(d_in=768, d_out=768, context_length=512, dropout=0.0, num_heads=12)
