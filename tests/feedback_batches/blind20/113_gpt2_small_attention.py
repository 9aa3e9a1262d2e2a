def gpt2_small_attention():
    config = {"vocab_size": 50257, "context_length": 1024, "emb_dim": 768, "n_heads": 12,
              "n_layers": 12, "drop_rate": 0.0, "qkv_bias": False}  # the book's GPT_CONFIG_124M, no dropout
    return MultiHeadAttention(d_in=config["emb_dim"], d_out=config["emb_dim"],
                              context_length=config["context_length"], dropout=config["drop_rate"],
                              num_heads=config["n_heads"], qkv_bias=config["qkv_bias"])
