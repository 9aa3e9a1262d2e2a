def attention_scores(inputs):
    return torch.cdist(inputs, inputs)
