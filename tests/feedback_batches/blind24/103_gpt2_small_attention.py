def gpt2_small_attention():
    return MultiHeadAttention(d_in=768, d_out=768, context_length=768, dropout=0.0, num_heads=12, qkv_bias=False)
