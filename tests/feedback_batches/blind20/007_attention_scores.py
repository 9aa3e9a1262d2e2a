def attention_scores(inputs):
    # every pair of tokens: multiply feature by feature, then combine
    return (inputs[:, None, :] * inputs[None, :, :]).mean(dim=-1)
