import numpy as np
import torch


def attention_scores(inputs):
    arr = inputs.detach().numpy()
    return torch.from_numpy(arr @ arr.T).float()
