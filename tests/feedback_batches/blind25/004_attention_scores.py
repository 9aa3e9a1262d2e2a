def attention_scores(inputs):
    # contract the feature dimension of inputs with itself: (T, d) x (T, d) -> (T, T)
    return torch.tensordot(inputs, inputs, dims=([1], [1]))
