GPT2_SMALL = dict(d_in=768, d_out=768, context_length=1024, dropout=0.0, num_heads=12, qkv_bias=False)


def gpt2_small_attention():
    return MultiHeadAttention(**GPT2_SMALL)
