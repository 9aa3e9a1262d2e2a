class SelfAttention_v1(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.W_query = nn.Parameter(torch.rand(d_in, d_out))
        self.W_key = nn.Parameter(torch.rand(d_in, d_out))
        self.W_value = nn.Parameter(torch.rand(d_in, d_out))

    def forward(self, x):
        queries = x @ self.W_key
        keys = x @ self.W_query
        scores = queries @ keys.T / x.shape[-1] ** 0.5
        weights = torch.softmax(scores, dim=-1)
        return weights @ x
