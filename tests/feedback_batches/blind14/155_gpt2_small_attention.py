def gpt2_small_attention():
    """Book exercise 3.3: GPT-2 small's attention (12 heads, 768 features, context 1024)."""
    cfg = {"emb_dim": 768, "context_length": 1024, "n_heads": 12, "drop_rate": 0.1, "qkv_bias": True}
    return MultiHeadAttention(cfg["emb_dim"], cfg["emb_dim"], cfg["context_length"],
                              cfg["drop_rate"], cfg["n_heads"], cfg["qkv_bias"])
