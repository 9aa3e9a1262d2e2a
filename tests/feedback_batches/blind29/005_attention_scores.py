import math


def attention_scores(inputs):
    d = inputs.shape[1]
    return (inputs.T @ inputs) / math.sqrt(d)
