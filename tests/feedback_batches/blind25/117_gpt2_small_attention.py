def gpt2_small_attention():
    GPT_CONFIG_124M = {
        "vocab_size": 50257,
        "context_length": 1024,
        "emb_dim": 768,
        "n_heads": 12,
        "n_layers": 12,
        "drop_rate": 0.1,
        "qkv_bias": True,
    }
    return MultiHeadAttention(
        GPT_CONFIG_124M["emb_dim"], GPT_CONFIG_124M["emb_dim"], GPT_CONFIG_124M["emb_dim"],
        GPT_CONFIG_124M["drop_rate"], GPT_CONFIG_124M["n_heads"], GPT_CONFIG_124M["qkv_bias"],
    )
