def attention_scores(inputs):
    """All pairwise dot products as a batch of row-times-matrix products."""
    # (T, 1, d) @ (d, T) broadcasts to (T, 1, T); squeezing the middle dim leaves (T, T)
    return (inputs.unsqueeze(1) @ inputs.transpose(0, 1)).squeeze(1)
