def gpt2_small_attention():
    cfg = {"emb_dim": 768, "context_length": 1024, "n_heads": 12, "drop_rate": 0.0, "qkv_bias": False}
    return MultiHeadAttention(
        d_in=cfg["emb_dim"], d_out=cfg["emb_dim"], context_length=cfg["context_length"],
        dropout=cfg["drop_rate"], num_heads=cfg["n_heads"], qkv_bias=cfg["qkv_bias"],
    )
