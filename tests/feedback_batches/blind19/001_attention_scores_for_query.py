import numpy as np
import torch


def attention_scores_for_query(inputs, query):
    d = inputs.shape[1]
    scores = np.dot(inputs.detach().numpy(), query.detach().numpy()) / np.sqrt(d)
    return torch.from_numpy(scores).float()
