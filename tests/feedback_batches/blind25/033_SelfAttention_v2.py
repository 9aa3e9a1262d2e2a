class SelfAttention_v2(nn.Module):
    def __init__(self, d_in, d_out, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)

    def forward(self, x):
        q, k, v = self.W_query(x), self.W_key(x), self.W_value(x)
        # torch.inner(q, k)[i, j] = q_i . k_j: the (T, T) scores of one sequence
        scores = torch.inner(q, k) * k.shape[-1] ** -0.5
        return torch.softmax(scores, dim=1) @ v
