def attention_scores(inputs):
    return torch.softmax(inputs @ inputs.T, dim=-1)
