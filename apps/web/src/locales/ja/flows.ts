import type { FlowsMessages } from '../en/flows';

/** フローとコマンドライブラリの文言（遅延読み込みのセクション。lib/i18n.ts の loadSection('flows')）。 */
export const flowsJa: FlowsMessages = {
  flowValidation: {
    stepId: '英数字・「-」・「_」のみ使用できます',
    unknownKind: '不明なコマンドです',
    emptyLoop: 'ループには1つ以上のステップが必要です',
    emptyCommand: 'コマンドには1つ以上のステップが必要です',
    tooDeep: 'ループの入れ子が深すぎます（4階層まで）',
    tooManySteps: 'ステップが多すぎます（フロー全体で500、1つのリストで200、コマンドで20まで）',
    duplicateStepId: '同じIDのステップが他にあります',
    version: '対応していない定義のバージョンです',
    speechSource: 'ビルの発話テキストを選ぶか、テキストを入力してください',
    gimbalAngles: 'パンとチルトの角度を入力してください',
    lightsNothing: '切り替えるライトを選んでください',
    taskNested: 'タスクの中で別のタスクを開始することはできません',
    taskNotStarted: 'このタスク完了の前にタスク開始がありません',
    taskCloseOutside: 'タスクは開始したのと同じリストの中で完了してください（ループの中ではなく）',
    taskNotClosed: 'このタスクが完了しません。同じリストの後ろにタスク完了を追加してください',
    outsideTask: 'タスク開始とタスク完了の間でのみ使用できます',
    detectionDistance: '検知距離は0.5〜5mの範囲で指定してください',
    detectionCamera: '人物検知は前方カメラまたはジンバルカメラでのみ使用できます',
    workPlansUnavailable: 'ワークプランはまだ利用できないため、フローから起動できません',
    commandInCommand: 'コマンドの中で別のコマンドは使用できません',
    commandModel: 'このコマンドはロボットモデル {{model}} では使用できません',
    unknownParameter: 'このコマンドにパラメータ「{{name}}」はありません',
    parameterType: '値がパラメータの型と一致しません',
    parameterName: '英字で始め、英数字と「_」のみ使用してください',
    capability: 'このロボット（{{model}}）はこの操作に対応していません：{{capability}}',
    notOnFloor: 'このステップでロボットがいるフロアのマップにありません',
    flowGroupBuilding: '選択したビルのフローグループを選んでください',
    floorBuilding: '選択したビルのフロアを選んでください',
    reorderMismatch: 'このビル・フロアのすべてのフローを1回ずつ指定してください',
    scopeSystemOnly: 'この公開範囲はシステム管理者のみ使用できます',
    inUse: 'このフローで使用中',
    organizationFixed: '組織は変更できません',
    commandNeedsTask:
      'このコマンドはタスク画像またはタスクイベントを記録します。タスク開始とタスク完了の間で使用してください',
    commandNotHere:
      'このコマンドは、ここ（このビルのこのフロア）にないウェイポイント・ルート・フロア・発話テキスト・ポーズを指定しています',
  },
};
