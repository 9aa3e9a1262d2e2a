def inverted_dropout(x, p, training=True, generator=None):
    if not 0 <= p <= 1:
        raise ValueError(f"p={p} must be in [0, 1]")
    return nn.functional.dropout(x, p=p, training=training)
