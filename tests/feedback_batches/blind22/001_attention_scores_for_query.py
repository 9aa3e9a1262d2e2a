import torch
import torch.nn.functional as F


def attention_scores_for_query(inputs, query):
    # a 1-D convolution whose single kernel is the query, slid over the T positions
    signal = inputs.T.unsqueeze(0)            # (1, d, T): d channels, T positions
    kernel = query.reshape(1, -1, 1)          # (out=1, in=d, width=1)
    return F.conv1d(signal, kernel).reshape(-1)  # (1, 1, T) -> (T,)
