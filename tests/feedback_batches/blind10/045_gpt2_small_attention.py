def gpt2_small_attention():
    """Book exercise 3.3: GPT-2 small's attention (12 heads, 768 features, context 1024)."""
    GPT_CONFIG_124M = {
        "emb_dim": 768,
        "n_heads": 12,
        "context_length": 1024,
        "drop_rate": 0.0,
        "qkv_bias": False,
    }
    return MultiHeadAttention(
        d_in=GPT_CONFIG_124M["emb_dim"],
        d_out=GPT_CONFIG_124M["emb_dim"],
        context_length=GPT_CONFIG_124M["context_length"],
        dropout=GPT_CONFIG_124M["drop_rate"],
        num_heads=GPT_CONFIG_124M["n_heads"],
        qkv_bias=GPT_CONFIG_124M["qkv_bias"],
    )
