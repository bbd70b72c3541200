import { robotInputSchema, type RobotCredentials, type RobotInput } from '@portal/contract';

/** The few portal REST calls the CLI needs to register simulated robots (docs/api.md). */
export interface PortalFloor {
  id: number;
  name: string;
  index: number;
}
export interface PortalRobot {
  id: number;
  serialNo: string;
  floorId?: number;
}

export class PortalClient {
  private token = '';

  constructor(private readonly baseUrl: string) {}

  private async call<T>(method: string, path: string, body?: unknown): Promise<{ status: number; data: T }> {
    const headers: Record<string, string> = {};
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${this.baseUrl.replace(/\/$/, '')}/api${path}`, {
      method,
      headers,
      body: body === undefined ? null : JSON.stringify(body),
    });
    const text = await res.text();
    let data: unknown = null;
    try {
      data = text ? JSON.parse(text) : null;
    } catch {
      data = text;
    }
    if (!res.ok) {
      const err = data as { code?: string; message?: string } | null;
      throw new Error(`${method} /api${path}: HTTP ${res.status} ${err?.code ?? ''} ${err?.message ?? ''}`.trim());
    }
    return { status: res.status, data: data as T };
  }

  async login(loginId: string, loginPw: string): Promise<void> {
    const { status, data } = await this.call<{ token: string }>('POST', '/operators/login', { loginId, loginPw });
    if (status === 202) throw new Error(`${loginId} signs in with a verification code; use an account without one`);
    this.token = data.token;
  }

  async buildings(): Promise<Array<{ id: number; name: string }>> {
    return (await this.call<Array<{ id: number; name: string }>>('GET', '/buildings')).data;
  }

  async floors(buildingId: number): Promise<PortalFloor[]> {
    return (await this.call<PortalFloor[]>('GET', `/buildings/${buildingId}/floors`)).data;
  }

  async findRobot(serialNo: string): Promise<PortalRobot | null> {
    const filter = encodeURIComponent(JSON.stringify({ where: { serialNo } }));
    const { data } = await this.call<PortalRobot[]>('GET', `/robots?filter=${filter}`);
    return data.find((r) => r.serialNo === serialNo) ?? null;
  }

  async createRobot(input: RobotInput): Promise<{ robot: PortalRobot; credentials: RobotCredentials }> {
    const body = robotInputSchema.parse(input);
    return (await this.call<{ robot: PortalRobot; credentials: RobotCredentials }>('POST', '/robots', body)).data;
  }

  /** Issues new broker credentials (the old password stops working). */
  async rotateCredentials(robotId: number): Promise<RobotCredentials> {
    return (await this.call<RobotCredentials>('POST', `/robots/${robotId}/credentials`)).data;
  }
}
