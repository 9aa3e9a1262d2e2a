def gpt2_small_attention():
    # GPT-2 was trained with dropout 0.1 and its released weights have q, k, v biases
    return MultiHeadAttention(d_in=768, d_out=768, context_length=1024, dropout=0.1, num_heads=12, qkv_bias=True)
