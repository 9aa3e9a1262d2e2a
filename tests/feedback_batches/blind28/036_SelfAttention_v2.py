class SelfAttention_v2(nn.Module):
    def __init__(self, d_in, d_out, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_out, d_in, bias=qkv_bias)
        self.W_key = nn.Linear(d_out, d_in, bias=qkv_bias)
        self.W_value = nn.Linear(d_out, d_in, bias=qkv_bias)

    def forward(self, x):
        keys = self.W_key(x)
        queries = self.W_query(x)
        values = self.W_value(x)
        weights = torch.softmax(queries @ keys.T / keys.shape[-1] ** 0.5, dim=0)
        return weights @ x
